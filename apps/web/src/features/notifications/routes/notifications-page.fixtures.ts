import { screen, within } from '@testing-library/react';
import { createMe } from '@/testing/factories';
import type { FakeReply, Handler } from '@/testing/fake-server';
import { createNotification, notificationRoutes } from '@/testing/notification-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

/** Shared by the /notifications page tests: three notifications and the page's panes. */
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const MINUTE = 60_000;

export const payment = createNotification({
  id: 'ntf_pay',
  type: 'PAYMENT_ISSUE',
  priority: 'HIGH',
  message: 'The payment for Basic failed.',
  createdAt: ago(2 * MINUTE),
});
export const trial = createNotification({
  id: 'ntf_trial',
  type: 'SUBSCRIPTION_UPDATE',
  priority: 'MEDIUM',
  message: 'Your 7-day free trial of Basic has started.',
  read: true,
  createdAt: ago(3 * 60 * MINUTE),
});
export const published = createNotification({
  id: 'ntf_post',
  type: 'POST_PUBLISHED',
  priority: 'LOW',
  message: "'Winter latte launch' was published to X (@acme_x).",
  postId: 'post_7',
  createdAt: ago(2 * 24 * 60 * MINUTE),
});

export async function renderNotifications({
  notifications = [payment, trial, published],
  routes = {},
  path = '/notifications',
}: {
  notifications?: ReturnType<typeof createNotification>[];
  routes?: Record<string, Handler | FakeReply>;
  path?: string;
} = {}) {
  const fixture = notificationRoutes(notifications);
  const server = mockServer({ me: createMe(), routes: { ...fixture, ...routes } });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Notifications', level: 1 });
  return { ...app, server };
}

export const listPane = () => screen.getByRole('region', { name: 'Notification list' });
export const detailPane = () => screen.getByRole('region', { name: 'Notification details' });
export const item = (message: string) =>
  within(listPane()).getByRole('listitem', { name: message });
export const tab = (name: RegExp) => within(listPane()).getByRole('tab', { name });
export const shownMessages = () =>
  within(listPane())
    .queryAllByRole('listitem')
    .map((li) => li.getAttribute('aria-label'));

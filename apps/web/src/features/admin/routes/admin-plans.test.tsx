import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  backOfficeRoutes,
  createBackOffice,
  operatorSession,
  type BackOffice,
} from '@/testing/admin-fixtures';
import { createPlan } from '@/testing/factories';
import { fail } from '@/testing/fake-server';
import { mockServer, renderApp } from '@/testing/render-app';

async function renderPlans(state: BackOffice = createBackOffice(), routes = {}) {
  const server = mockServer({
    me: operatorSession(),
    routes: { ...backOfficeRoutes(state), ...routes },
  });
  const app = renderApp('/admin/plans');
  await screen.findByRole('heading', { name: 'Plan Management', level: 1 });
  await screen.findByRole('table', { name: 'Plans' });
  return { ...app, server, state };
}

const table = () => screen.getByRole('table', { name: 'Plans' });
const rowOf = (name: string) => within(table()).getByRole('row', { name: new RegExp(`^${name}`) });

describe('/admin/plans', () => {
  it('lists every plan with Free for 0, the price, cycle, features, status and date', async () => {
    await renderPlans();
    expect(screen.getByText('Create, view, and update subscription plans.')).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Name',
      'Description',
      'Price',
      'Billing Cycle',
      'Features',
      'Status',
      'Created At',
      'Actions',
    ]);
    const starter = rowOf('Starter');
    expect(within(starter).getByText('Free')).toBeInTheDocument();
    expect(within(starter).getByText('Monthly')).toBeInTheDocument();
    expect(within(starter).getByText('Active')).toBeInTheDocument();
    expect(within(starter).getByText('Jan 1, 2026')).toBeInTheDocument();
    expect(starter).toHaveTextContent('Posts Per Day: 5');
    expect(starter).toHaveTextContent('Priority Support: No');
    expect(within(rowOf('Basic')).getByText('$29.00')).toBeInTheDocument();
    expect(within(rowOf('Legacy')).getByText('Inactive')).toBeInTheDocument();
  });

  it('says "No plans found" when the search matches nothing, searching on the server', async () => {
    const { user, server } = await renderPlans();
    await user.type(screen.getByRole('searchbox', { name: 'Search the back-office' }), 'zzz');
    expect(await within(table()).findByText('No plans found')).toBeInTheDocument();
    const last = server.requests.filter((r) => r.path === '/plans').at(-1)!;
    expect(last.query.get('search')).toBe('zzz');
  });

  it('pages on the server, ten plans a page', async () => {
    const state = createBackOffice({
      plans: Array.from({ length: 12 }, (_, i) => createPlan({ id: `p${i}`, name: `Plan ${i}` })),
    });
    const { user } = await renderPlans(state);
    expect(within(table()).getAllByRole('row')).toHaveLength(11);
    const pager = screen.getByRole('navigation', { name: 'Plans pages' });
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await within(table()).findByRole('rowheader', { name: 'Plan 11' })).toBeInTheDocument();
    expect(within(pager).getByText('Page 2 of 2')).toBeInTheDocument();
  });

  it('opens Create Plan with the spec defaults and refuses invalid numbers', async () => {
    const { user, server } = await renderPlans();
    await user.click(screen.getByRole('button', { name: 'New Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Plan' });
    for (const section of ['Plan Information', 'Features', 'Status']) {
      expect(within(dialog).getByRole('group', { name: section })).toBeInTheDocument();
    }
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('');
    expect(within(dialog).getByRole('textbox', { name: /^Price/ })).toHaveValue('');
    expect(within(dialog).getByRole('combobox', { name: 'Billing Cycle' })).toHaveValue('MONTHLY');
    expect(within(dialog).getByRole('combobox', { name: 'Status' })).toHaveValue('ACTIVE');
    for (const label of ['Invites', 'Posts per day', 'Organizations', 'Connected platforms']) {
      expect(within(dialog).getByRole('spinbutton', { name: label })).toHaveValue(1);
    }
    expect(within(dialog).getByRole('checkbox', { name: 'Priority support' })).not.toBeChecked();

    await user.click(within(dialog).getByRole('button', { name: 'Create Plan' }));
    expect(within(dialog).getByText('Name is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Description is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Price is required.')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: /^Price/ }), '-3');
    const invites = within(dialog).getByRole('spinbutton', { name: 'Invites' });
    await user.clear(invites);
    await user.type(invites, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Create Plan' }));
    expect(within(dialog).getByText('Price cannot be negative.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Invites must be a whole number of at least 1.'),
    ).toBeInTheDocument();
    expect(server.count('POST /plans')).toBe(0);
  });

  it('creates a plan with numbers and a boolean, closes the modal and reloads the list', async () => {
    const { user, server } = await renderPlans();
    await user.click(screen.getByRole('button', { name: 'New Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Plan' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '  Agency ');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'For agencies');
    await user.type(within(dialog).getByRole('textbox', { name: /^Price/ }), '49.5');
    const invites = within(dialog).getByRole('spinbutton', { name: 'Invites' });
    await user.clear(invites);
    await user.type(invites, '12');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Priority support' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Plan Type' }), 'agency');
    await user.click(within(dialog).getByRole('button', { name: 'Create Plan' }));

    expect(await screen.findByText('Plan created successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests.find((r) => r.method === 'POST' && r.path === '/plans')?.body).toEqual({
      name: 'Agency',
      description: 'For agencies',
      price: 49.5,
      billingCycle: 'MONTHLY',
      stripePriceId: null,
      providerMetadata: { planType: 'agency' },
      features: {
        invites: 12,
        postsPerDay: 1,
        organizations: 1,
        connectedPlatforms: 1,
        prioritySupport: true,
      },
      status: 'ACTIVE',
      popular: false,
      trialEligible: true,
    });
    expect(await within(table()).findByText('$49.50')).toBeInTheDocument();
  });

  it('edits a plan from its values, keeping what the form does not show changed', async () => {
    const { user, server } = await renderPlans();
    await user.click(within(rowOf('Basic')).getByRole('button', { name: 'Edit Basic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Plan' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Basic');
    expect(within(dialog).getByRole('checkbox', { name: 'Mark as popular' })).toBeChecked();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Status' }), 'INACTIVE');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Plan updated successfully!')).toBeInTheDocument();
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({
      name: 'Basic',
      price: 29,
      status: 'INACTIVE',
      popular: true,
    });
    await waitFor(() => expect(within(rowOf('Basic')).getByText('Inactive')).toBeInTheDocument());
  });

  it("keeps the modal open and shows the server's reason when saving fails", async () => {
    const { user } = await renderPlans(createBackOffice(), {
      'PUT /plans/plan_basic': fail(404, 'NOT_FOUND', 'This plan does not exist.'),
    });
    await user.click(within(rowOf('Basic')).getByRole('button', { name: 'Edit Basic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Plan' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('This plan does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Plan' })).toBeInTheDocument();
  });
});

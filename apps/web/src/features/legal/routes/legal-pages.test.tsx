import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockServer, renderApp } from '@/testing/render-app';

describe('legal pages', () => {
  it.each([
    ['/privacy-policy', 'Privacy Policy', ['privacy@herald.example', 'support@herald.example']],
    ['/terms-of-service', 'Terms of Service', ['legal@herald.example', 'support@herald.example']],
    ['/cookie-policy', 'Cookie Policy', ['privacy@herald.example']],
  ])(
    '%s shows its text, the revision date and the contact addresses',
    async (path, title, emails) => {
      mockServer();
      renderApp(path);

      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      expect(screen.getByText(/^Last updated:/)).toBeInTheDocument();
      const article = screen.getByRole('article');
      for (const email of emails) {
        expect(article.querySelector(`a[href="mailto:${email}"]`)).not.toBeNull();
      }
    },
  );

  it('the privacy policy says connected-account tokens are encrypted at rest', async () => {
    mockServer();
    renderApp('/privacy-policy');
    expect(await screen.findByText(/tokens are encrypted at rest/)).toBeInTheDocument();
  });

  it('the cookie policy names the keys kept in local storage', async () => {
    mockServer();
    renderApp('/cookie-policy');
    expect(await screen.findByText('herald.currentOrgId')).toBeInTheDocument();
    expect(screen.getByText('herald.cookieConsent')).toBeInTheDocument();
    expect(screen.getAllByText(/httpOnly/).length).toBeGreaterThan(0);
  });

  it('the terms describe the 7-day trial without a credit card', async () => {
    mockServer();
    renderApp('/terms-of-service');
    expect(
      await screen.findByText(/free for 7 days, once\. No credit card is required/),
    ).toBeInTheDocument();
  });
});

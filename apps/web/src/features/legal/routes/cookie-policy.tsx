import { contactEmails } from '@/config/paths';
import { storageKeys } from '@/lib/storage';
import { LegalPage, Mail } from '../components/legal-page';

export function CookiePolicyPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      summary="Herald stores very little in your browser: what keeps you signed in and two small preferences. No advertising or cross-site tracking cookies."
    >
      <h2>1. What cookies and local storage are</h2>
      <p>
        Cookies are small pieces of data a website asks your browser to keep and send back with each
        request. Local storage is a similar space that only the website&apos;s own pages can read;
        its contents are never sent to our servers on their own.
      </p>

      <h2>2. Essential session cookies</h2>
      <p>
        When you sign in, Herald sets two cookies: a short-lived access cookie that proves who you
        are, and a refresh cookie used to renew it without signing in again. Both are:
      </p>
      <ul>
        <li>httpOnly, so no script in the page, including ours, can read them;</li>
        <li>sent only to Herald (SameSite=Lax) and, in production, only over HTTPS;</li>
        <li>removed when you log out, and useless after they expire.</li>
      </ul>
      <p>
        The sign-in step with your identity provider may set its own short-lived cookies to protect
        that exchange. These cookies are strictly necessary: Herald cannot work without them, so
        they do not depend on your consent.
      </p>

      <h2>3. Local storage</h2>
      <ul>
        <li>
          <code>{storageKeys.currentOrgId}</code> remembers which organization you were working in,
          so Herald opens it again next time.
        </li>
        <li>
          <code>{storageKeys.cookieConsent}</code> remembers whether you chose Accept All or Reject
          All in the cookie banner, so we do not ask again.
        </li>
        <li>
          <code>{storageKeys.roleColors}</code> remembers the color you picked for each team role,
          on this browser only.
        </li>
        <li>
          <code>{storageKeys.libraryView}</code> remembers whether you look at the content library
          as cards or as a list.
        </li>
        <li>
          <code>{storageKeys.calendarView}</code> remembers the calendar view (agenda, week or
          month) you last chose on a phone and on a larger screen, on this browser only.
        </li>
        <li>
          <code>{storageKeys.inboxNotices}</code> remembers that you dismissed the inbox&apos;s note
          about your accounts (for each organization), on this browser only.
        </li>
      </ul>
      <p>
        The current organization is cleared when you log out. All entries can be removed at any time
        from your browser&apos;s site data settings.
      </p>

      <h2>4. What we do not use</h2>
      <p>
        Herald does not use advertising cookies, cross-site trackers or third-party analytics
        cookies. If we ever add optional cookies, they will be set only after you choose Accept All,
        and this page will list them first.
      </p>

      <h2>5. Embedded posts</h2>
      <p>
        When you open the details of a published post, Herald may show the post as the network
        displays it. Such embeds are loaded from the network itself, which may set its own cookies
        under its own policy.
      </p>

      <h2>6. Your choice</h2>
      <p>
        Reject All keeps only the essential cookies described above. You can change your mind at any
        time by clearing Herald&apos;s site data in your browser; the banner will then ask again.
      </p>

      <h2>7. Contact</h2>
      <p>
        Questions about cookies: <Mail to={contactEmails.privacy} />.
      </p>
    </LegalPage>
  );
}

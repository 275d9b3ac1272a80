import { contactEmails } from '@/config/paths';
import { LegalPage, Mail } from '../components/legal-page';

export function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      summary="This policy explains what Herald collects when your team uses it to plan and publish social media posts, why we need it, and the choices you have."
    >
      <h2>1. Who we are</h2>
      <p>
        Herald is a social media management service. When your organization uses Herald, the
        organization decides which accounts to connect and what to publish; we process that
        information on its behalf to run the service. For everything about your own account, such as
        your profile and sign-in, we are responsible for the data ourselves.
      </p>

      <h2>2. What we collect</h2>
      <h3>Your account profile</h3>
      <p>
        Herald has no passwords. You sign in through an identity provider (for example Google or
        your company&apos;s single sign-on). From that provider we receive your email address, your
        name and, if available, a profile picture. You can change your display name and time zone in
        Herald at any time.
      </p>
      <h3>Organization data</h3>
      <p>
        We store the organizations you create or join, their names, their members, the roles and
        permissions given to each member, invitations, and the subscription plan in force.
      </p>
      <h3>Connected social accounts</h3>
      <p>
        When you connect a network such as Instagram, Facebook, X, TikTok, Threads or Mastodon, the
        network gives us access tokens that let Herald publish and read comments on your behalf.
        These tokens are encrypted at rest, are never shown in the interface, and are used only for
        the actions your team asks for. We also keep the public account name and picture so you can
        recognise the account.
      </p>
      <h3>Posts and media</h3>
      <p>
        We store the text of your posts, the images and videos you upload, schedules, publishing
        results, and comments fetched from the networks so that your team can read and answer them
        in one place.
      </p>
      <h3>Technical data</h3>
      <p>
        Our servers record technical events such as request times, error reports and the IP address
        that made a request. We use them to keep the service secure and working and delete them
        after a short retention period.
      </p>

      <h2>3. Why we use it</h2>
      <ul>
        <li>To sign you in and keep your session secure.</li>
        <li>To schedule, publish and report on the posts your team prepares.</li>
        <li>To show your team the comments and messages your accounts receive.</li>
        <li>To manage subscriptions, trials and invoices.</li>
        <li>To detect abuse, fix bugs and answer your support requests.</li>
      </ul>
      <p>
        We do not sell personal data and we do not use the content of your posts to advertise to
        you.
      </p>

      <h2>4. Who we share it with</h2>
      <p>
        We share data only with the services needed to run Herald: the social networks you choose to
        publish to, our hosting and storage providers, and our payment processor for paid plans.
        Each of them acts under a contract that limits the use of your data to providing their
        service. We disclose data to authorities only when the law requires it.
      </p>

      <h2>5. How long we keep it</h2>
      <p>
        We keep your data while your account or organization is active. When an organization is
        deleted we remove its posts, media and connected-account tokens within 30 days, except
        records we must keep by law, such as invoices.
      </p>

      <h2>6. Security</h2>
      <p>
        Sessions use short-lived, httpOnly cookies that scripts cannot read. Access tokens of
        connected networks are encrypted at rest. Access within an organization follows the roles
        its administrators assign.
      </p>

      <h2>7. Your rights</h2>
      <p>
        You can ask for a copy of your personal data, ask us to correct or delete it, object to its
        use, or ask us to transfer it. Write to <Mail to={contactEmails.privacy} /> and we will
        answer within 30 days. You may also complain to your data protection authority.
      </p>

      <h2>8. Changes</h2>
      <p>
        When this policy changes in a way that matters, we will tell you in the app or by email
        before the change takes effect.
      </p>

      <h2>9. Contact</h2>
      <p>
        Privacy questions: <Mail to={contactEmails.privacy} />. Anything else:{' '}
        <Mail to={contactEmails.support} />.
      </p>
    </LegalPage>
  );
}

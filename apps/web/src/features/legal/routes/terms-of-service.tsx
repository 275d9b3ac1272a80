import { Link } from 'react-router';
import { contactEmails, paths } from '@/config/paths';
import { LegalPage, Mail } from '../components/legal-page';

export function TermsOfServicePage() {
  return (
    <LegalPage
      title="Terms of Service"
      summary="These terms govern your use of Herald. By signing in you accept them on your own behalf and, if you act for an organization, on its behalf."
    >
      <h2>1. The service</h2>
      <p>
        Herald lets teams connect social media accounts, prepare and schedule posts, publish them,
        read and answer comments, and manage members and roles. Some features depend on the social
        networks themselves; when a network changes or limits its interface, the matching Herald
        feature may change or stop working.
      </p>

      <h2>2. Accounts and organizations</h2>
      <p>
        You sign in through an identity provider and are responsible for keeping that account
        secure. The members of an organization with administrative roles decide who joins it and
        what each member may do. You must give accurate information and be old enough to accept
        these terms where you live.
      </p>

      <h2>3. Acceptable use</h2>
      <p>You agree not to use Herald to:</p>
      <ul>
        <li>publish content that is unlawful, deceptive, hateful, harassing or infringing;</li>
        <li>send spam, run fake engagement or break the rules of any connected network;</li>
        <li>connect accounts you are not authorised to manage;</li>
        <li>probe, overload or try to bypass the security of the service;</li>
        <li>resell or share access to Herald outside your organization without our agreement.</li>
      </ul>
      <p>
        You remain responsible for what your organization publishes. We may remove content or
        suspend access that breaks these rules.
      </p>

      <h2>4. Your content</h2>
      <p>
        You keep all rights to your posts and media. You give us the permission needed to store,
        process and send them to the networks you choose, only to provide the service.
      </p>

      <h2>5. Subscriptions and the free trial</h2>
      <ul>
        <li>
          Each organization can try Herald free for 7 days, once. No credit card is required to
          start the trial.
        </li>
        <li>
          Paid plans are billed in advance for each billing period at the price shown on the{' '}
          <Link to={paths.pricing}>pricing page</Link>. Plan limits, such as posts per day, team
          members and connected platforms, apply as described there.
        </li>
        <li>
          You can cancel at any time; the plan then stays active until the end of the period already
          paid and does not renew. Fees already paid are not refunded unless the law requires it.
        </li>
        <li>We will announce price changes at least 30 days before they apply to you.</li>
      </ul>

      <h2>6. Availability</h2>
      <p>
        We work to keep Herald available and to publish at the scheduled time, but networks can
        reject or delay a post. Herald shows each post&apos;s result and never retries silently when
        the outcome is uncertain; please check such posts on the network.
      </p>

      <h2>7. Termination</h2>
      <p>
        You may stop using Herald and ask us to delete your organization at any time. We may suspend
        or end access for a serious or repeated breach of these terms, for non-payment, or when the
        law requires it; where possible we will warn you first and let you export your content.
      </p>

      <h2>8. Liability</h2>
      <p>
        Herald is provided as is. To the extent the law allows, we are not liable for indirect
        losses such as lost profits, lost reach or damage caused by a network&apos;s decisions, and
        our total liability for any claim is limited to the amount your organization paid us in the
        12 months before the claim. Nothing in these terms limits liability that cannot be limited
        by law.
      </p>

      <h2>9. Governing terms and changes</h2>
      <p>
        These terms, together with our <Link to={paths.privacyPolicy}>Privacy Policy</Link> and{' '}
        <Link to={paths.cookiePolicy}>Cookie Policy</Link>, are the whole agreement between you and
        us about Herald. They are governed by the law of the country where the Herald operator is
        established, without prejudice to the mandatory protections of the country where you live.
        If we change them materially, we will tell you before the change applies; continuing to use
        Herald afterwards means you accept the new terms.
      </p>

      <h2>10. Contact</h2>
      <p>
        Legal questions: <Mail to={contactEmails.legal} />. Help with the product:{' '}
        <Mail to={contactEmails.support} />.
      </p>
    </LegalPage>
  );
}

import { Outlet } from 'react-router';
import { CookieBanner } from '@/components/cookie-banner';

/** Public pages bring their own header and footer; the layout adds the cookie question. */
export function PublicLayout() {
  return (
    <>
      <Outlet />
      <CookieBanner />
    </>
  );
}

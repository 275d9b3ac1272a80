import type { ReactNode } from 'react';
import { PublicHeader } from './public-header';
import { SiteFooter } from './site-footer';

/** Header, main landmark and footer around a public page's content. */
export function PublicPage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-white">
      <PublicHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

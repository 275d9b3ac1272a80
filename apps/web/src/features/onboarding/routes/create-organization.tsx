import { useNavigate } from 'react-router';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { CreateOrganizationDialog } from '../components/create-organization-dialog';

/**
 * /create-organization: the create dialog on its own page (a link target). Creating opens the
 * new organization's dashboard; closing goes back to onboarding.
 */
export function CreateOrganizationPage() {
  const navigate = useNavigate();
  return (
    <div className="min-h-dvh bg-slate-50">
      <title>Create Organization · Herald</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-5xl px-4 py-3 sm:px-6">
          <Logo />
        </div>
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
        <h1 className="sr-only">Create Organization</h1>
      </main>
      <CreateOrganizationDialog
        open
        onOpenChange={(open) => !open && void navigate(paths.onboarding)}
      />
    </div>
  );
}

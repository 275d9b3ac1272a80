import { LockKeyhole } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { StatusPage } from '../components/status-page';

export function UnauthorizedPage() {
  const navigate = useNavigate();
  return (
    <StatusPage
      code="401"
      title="Unauthorized"
      message="You need to sign in to see this page. Your session may have ended; sign in again to continue."
      icon={LockKeyhole}
      actions={
        <>
          <Button variant="secondary" onClick={() => void navigate(-1)}>
            Go Back
          </Button>
          <ButtonLink to={paths.home}>Return Home</ButtonLink>
        </>
      }
    />
  );
}

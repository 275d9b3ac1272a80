import { ShieldX } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { StatusPage } from '../components/status-page';

export function ForbiddenPage() {
  const navigate = useNavigate();
  return (
    <StatusPage
      code="403"
      title="Access Forbidden"
      message="You don't have permission to open this page. If you think you should, ask an administrator of your organization."
      icon={ShieldX}
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

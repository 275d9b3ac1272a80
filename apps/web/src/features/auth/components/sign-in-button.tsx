import { LogIn } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { signInUrl, useAuth } from '@/lib/auth';
import { goToExternal } from '@/lib/browser';
import { useAuthProvider } from '../api/use-auth-provider';

export const FALLBACK_PROVIDER_LABEL = 'Continue with your identity provider';

/**
 * The one way in: the browser leaves for the server's sign-in route, which hands over to the
 * identity provider (there is no password form). While the session check runs a spinner takes
 * the button's place, so a signed-in user is not offered to sign in again.
 */
export function SignInButton() {
  const { isLoading } = useAuth();
  const provider = useAuthProvider();
  const [isLeaving, setIsLeaving] = useState(false);

  if (isLoading) {
    return <LoadingIndicator label="Checking your session…" className="h-12" />;
  }

  const label = provider.data ? `Continue with ${provider.data.label}` : FALLBACK_PROVIDER_LABEL;
  return (
    <Button
      size="lg"
      className="w-full"
      disabled={isLeaving}
      onClick={() => {
        setIsLeaving(true);
        goToExternal(signInUrl);
      }}
    >
      {isLeaving ? (
        <Spinner className="size-5 text-white" />
      ) : (
        <LogIn className="size-5" aria-hidden="true" />
      )}
      {label}
    </Button>
  );
}

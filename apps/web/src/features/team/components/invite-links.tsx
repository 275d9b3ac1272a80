import { Copy } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';

export interface InviteLink {
  email: string;
  url: string;
}

async function copy(link: InviteLink, input: HTMLInputElement | null) {
  try {
    await navigator.clipboard.writeText(link.url);
    toast.success(`Invite link for ${link.email} copied`);
  } catch {
    // No clipboard access (permissions, insecure context): leave the link selected instead.
    input?.select();
    toast.error('Could not copy the link. It is selected: copy it with your keyboard.');
  }
}

function LinkRow({ link }: { link: InviteLink }) {
  const id = useId();
  return (
    <li>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Invite link for {link.email}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          readOnly
          value={link.url}
          onFocus={(event) => event.target.select()}
          className="block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800"
        />
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Copy invite link for ${link.email}`}
          onClick={(event) =>
            void copy(link, event.currentTarget.parentElement?.querySelector('input') ?? null)
          }
        >
          <Copy className="size-4" aria-hidden="true" />
          Copy
        </Button>
      </div>
    </li>
  );
}

/**
 * Links to pass on by hand: without an email server Herald cannot send the invitations, so the
 * inviter must not lose them.
 */
export function InviteLinks({ links }: { links: InviteLink[] }) {
  return (
    <div>
      <p className="text-sm text-slate-700">
        Herald did not send an email. Share {links.length === 1 ? 'this link' : 'these links'} with
        the invitee{links.length === 1 ? '' : 's'}: each one works only for the invited email
        address.
      </p>
      <ul className="mt-4 flex flex-col gap-4">
        {links.map((link) => (
          <LinkRow key={link.url} link={link} />
        ))}
      </ul>
    </div>
  );
}

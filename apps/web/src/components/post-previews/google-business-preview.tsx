import { GBP_ACTION_LABELS, emptyGbpSettings, type GbpEvent } from '@herald/contract';
import { Store, Tag } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { PreviewMedia, accountOf, type PreviewProps } from './preview-parts';

const day = (d: string | null, t: string | null) => {
  if (!d) return null;
  const at = new Date(`${d}T${t ?? '00:00'}:00`);
  if (Number.isNaN(at.getTime())) return null;
  return at.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(t ? { hour: 'numeric', minute: '2-digit' } : {}),
  });
};

/** "Apr 1 – Apr 30" as Google writes an event's or offer's dates under its title. */
function datesOf(event: GbpEvent | null) {
  if (!event) return null;
  const start = day(event.startDate, event.startTime);
  const end = day(event.endDate, event.endTime);
  if (!start && !end) return null;
  return [start, end].filter(Boolean).join(' – ');
}

/**
 * A local post on the location's Business Profile: the business, the one photo, an event's or
 * offer's title and dates, the text, an offer's coupon, redeem link and terms, and the button.
 */
export function GoogleBusinessPreview({ platform, text, media, googleBusiness }: PreviewProps) {
  const account = accountOf(platform);
  const s = googleBusiness ?? emptyGbpSettings();
  const photo = media.find((item) => item.kind === 'image') ?? media[0];
  const dated = s.topicType !== 'STANDARD';
  const dates = dated ? datesOf(s.event) : null;
  const offer = s.topicType === 'OFFER' ? s.offer : null;
  return (
    <div
      className="space-y-3 bg-white p-4 text-sm text-slate-900"
      data-testid="google-business-preview"
    >
      <div className="flex items-center gap-3">
        <Avatar name={account.name} url={account.pictureUrl} className="size-9" />
        <div className="min-w-0">
          <p className="truncate font-medium">{account.name}</p>
          <p className="text-xs text-slate-500">Just now</p>
        </div>
      </div>
      {photo ? (
        <div className="aspect-[4/3] w-full overflow-hidden rounded-lg bg-slate-100">
          <PreviewMedia item={photo} />
        </div>
      ) : null}
      {dated && (
        <div>
          <p className="text-base font-medium">
            {s.event?.title || (s.topicType === 'EVENT' ? 'Event title' : 'Offer title')}
          </p>
          {dates && <p className="text-xs text-slate-600">{dates}</p>}
        </div>
      )}
      {text && <p className="line-clamp-6 break-words whitespace-pre-wrap">{text}</p>}
      {offer && (offer.couponCode || offer.redeemOnlineUrl || offer.termsConditions) && (
        <div className="space-y-2 rounded-lg border border-dashed border-slate-300 p-3">
          {offer.couponCode && (
            <p className="flex items-center gap-2">
              <Tag className="size-4 text-green-700" aria-hidden="true" />
              <span className="text-xs text-slate-600">Show this code at the store</span>
              <span className="font-mono font-semibold tracking-wide">{offer.couponCode}</span>
            </p>
          )}
          {offer.redeemOnlineUrl && <p className="font-medium text-[#1A73E8]">Redeem online</p>}
          {offer.termsConditions && (
            <p className="line-clamp-2 text-xs text-slate-500">{offer.termsConditions}</p>
          )}
        </div>
      )}
      {offer && !offer.couponCode && !offer.redeemOnlineUrl && (
        <p className="font-medium text-[#1A73E8]">View offer</p>
      )}
      {s.callToAction && s.topicType !== 'OFFER' && (
        <span className="inline-flex rounded-full border border-slate-300 px-4 py-1.5 font-medium text-[#1A73E8]">
          {GBP_ACTION_LABELS[s.callToAction.actionType]}
        </span>
      )}
      {!text && !photo && !dated && (
        <p className="flex items-center gap-2 text-slate-500">
          <Store className="size-4" aria-hidden="true" />
          Write the update, or add a photo.
        </p>
      )}
    </div>
  );
}

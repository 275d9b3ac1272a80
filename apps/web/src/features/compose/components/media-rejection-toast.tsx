import { toast } from '@/lib/toast';
import type { MediaRejection } from '../utils/accept-media';

/** One error toast per sentence of docs/product.md#media-rules, naming the files and networks it is about. */
export function toastMediaRejections(rejections: readonly MediaRejection[]) {
  for (const rejection of rejections) {
    const about = [rejection.fileNames.join(', '), rejection.platforms.join(', ')]
      .filter(Boolean)
      .join(' · ');
    toast.error(
      <span>
        <span className="block">{rejection.message}</span>
        {about && <span className="block text-xs text-slate-600">{about}</span>}
      </span>,
    );
  }
}

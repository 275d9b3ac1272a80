import type { InboxConversation } from '@herald/contract';

/** "order" → "Order": labels are stored lower-case and shown as words. */
export function labelText(label: string): string {
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** How long a reply window stays open, in words ("3 h 20 min", "12 min", "less than a minute"). */
export function timeLeft(closesAt: string, now = Date.now()): string {
  const minutes = Math.floor((Date.parse(closesAt) - now) / 60_000);
  if (minutes < 1) return 'less than a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

const KIND_TEXT: Record<InboxConversation['kind'], string> = {
  dm: 'Direct message',
  comments: 'Comments',
  mention: 'Mention',
};

/** What a conversation is, in a word or two: a rated one is a customer's review. */
export const kindText = (conversation: Pick<InboxConversation, 'kind' | 'rating'>) =>
  conversation.rating != null ? 'Review' : KIND_TEXT[conversation.kind];

/** The name of the other side, or of the account's handle when the network gives no name. */
export function personName(person: { name: string | null; username: string | null }): string {
  return person.name?.trim() || (person.username ? `@${person.username}` : 'Someone');
}

import { webUrlOrNull, type InboxAttachment, type InboxPerson } from '@herald/contract';
import type { InboxEvent } from '../../platforms/inbox-types.js';

/**
 * The event with only web addresses (`webUrlOrNull`): a picture, profile, attachment or permalink
 * that is anything else (`javascript:`, `data:`, credentials, control characters) becomes null.
 * Every event a network gives — polled, imported on connect or pushed by a webhook — is stored
 * through here, so no other address reaches the inbox's tables.
 */
export function withWebUrls(event: InboxEvent): InboxEvent {
  return {
    ...event,
    author: personWithWebUrls(event.author),
    ...(event.counterpart ? { counterpart: personWithWebUrls(event.counterpart) } : {}),
    attachments: event.attachments.map(attachmentWithWebUrls),
    ...(event.rootPost
      ? { rootPost: { ...event.rootPost, permalink: webUrlOrNull(event.rootPost.permalink) } }
      : {}),
  };
}

export const personWithWebUrls = (person: InboxPerson): InboxPerson => ({
  ...person,
  pictureUrl: webUrlOrNull(person.pictureUrl),
  profileUrl: webUrlOrNull(person.profileUrl),
});

export const attachmentWithWebUrls = (attachment: InboxAttachment): InboxAttachment => ({
  ...attachment,
  url: webUrlOrNull(attachment.url),
  previewUrl: webUrlOrNull(attachment.previewUrl),
});

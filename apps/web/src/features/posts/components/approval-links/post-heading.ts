import { defaultContent, type Post } from '@herald/contract';

/** How a post is named in a list or a dialog: its title, else the start of its text. */
export function postHeading(post: Pick<Post, 'title' | 'content'>): string {
  const words = (post.title?.trim() || defaultContent(post.content)).replace(/\s+/g, ' ').trim();
  if (!words) return 'Untitled post';
  return words.length > 60 ? `${words.slice(0, 59)}…` : words;
}

import { grownCount } from '../kit/growth.js';
import { wants, type ObjectView } from './helpers.js';
import {
  graphTime,
  type FbPhoto,
  type FbPost,
  type FbVideo,
  type GraphObject,
  type GraphObjects,
} from './objects.js';

/** Graph gives a video's permalink_url relative to facebook.com. */
export const videoPermalink = (v: FbVideo) => `/${v.owner}/videos/${v.id}/`;

/** How Page posts, photos and videos answer `GET /{id}?fields=…` (docs/networks.md#facebook-publishing). */
export function addPageViews(
  views: Map<GraphObject['type'], ObjectView>,
  deps: { now: () => Promise<number>; objects: GraphObjects },
) {
  const from = (o: { owner: string; pageName?: string }) => ({
    id: o.owner,
    name: o.pageName ?? '',
  });

  views.set('fb_post', {
    nodeType: 'Post',
    defaults: 'id,message,created_time',
    async view(object: GraphObject, specs) {
      const post = object as FbPost;
      const age = (await deps.now()) - post.createdAt;
      const photo = post.photoIds[0] ? await deps.objects.get(post.photoIds[0]) : null;
      // Shares grow with the clock; Graph leaves `shares` out while there are none.
      const shares = grownCount(post.id, 'shares', age, 12);
      return {
        id: post.id,
        message: post.message || undefined,
        created_time: graphTime(post.createdAt),
        updated_time: graphTime(post.createdAt),
        permalink_url: post.permalink,
        from: from(post),
        status_type: post.statusType,
        is_published: true,
        link: post.link ?? undefined,
        full_picture: photo?.type === 'fb_photo' ? photo.url : undefined,
        shares: shares > 0 ? { count: shares } : undefined,
        // `comments.summary(true).limit(0)`: the count without the comments (docs/analytics.md).
        comments: wants(specs, 'comments')
          ? {
              data: [],
              summary: {
                order: 'ranked',
                total_count:
                  (await deps.objects.countComments(post.id)) +
                  grownCount(post.id, 'comments', age, 20),
                can_comment: true,
              },
            }
          : undefined,
        attachments: post.photoIds.length
          ? {
              data: post.photoIds.map((id) => ({
                type: 'photo',
                media_type: 'photo',
                target: { id },
              })),
            }
          : undefined,
      };
    },
  });
  views.set('fb_photo', {
    nodeType: 'Photo',
    defaults: 'id,created_time',
    async view(object: GraphObject) {
      const photo = object as FbPhoto;
      return {
        id: photo.id,
        name: photo.caption || undefined,
        created_time: graphTime(photo.createdAt),
        link: `https://www.facebook.com/photo.php?fbid=${photo.id}`,
        from: { id: photo.owner },
        page_story_id: photo.postId ?? undefined,
        images: [{ source: photo.url }],
      };
    },
  });
  views.set('fb_video', {
    nodeType: 'Video',
    defaults: 'id,created_time',
    async view(object: GraphObject) {
      const v = object as FbVideo;
      return {
        id: v.id,
        title: v.title || undefined,
        description: v.description || undefined,
        created_time: graphTime(v.createdAt),
        updated_time: graphTime(v.createdAt),
        permalink_url: videoPermalink(v),
        from: from(v),
        published: v.published,
        status: {
          video_status: 'ready',
          uploading_phase: { status: 'complete' },
          processing_phase: { status: 'complete' },
          publishing_phase: {
            status: 'complete',
            publish_status: v.published ? 'published' : 'not_published',
          },
        },
      };
    },
  });
}

import type { ObjectView } from './helpers.js';
import { graphTime, type FbPhoto, type FbPost, type FbVideo, type GraphObject } from './objects.js';

/** Graph gives a video's permalink_url relative to facebook.com. */
export const videoPermalink = (v: FbVideo) => `/${v.owner}/videos/${v.id}/`;

/** How Page posts, photos and videos answer `GET /{id}?fields=…` (docs/networks.md#facebook-publishing). */
export function addPageViews(views: Map<GraphObject['type'], ObjectView>) {
  const from = (o: { owner: string; pageName?: string }) => ({
    id: o.owner,
    name: o.pageName ?? '',
  });

  views.set('fb_post', {
    nodeType: 'Post',
    defaults: 'id,message,created_time',
    async view(object: GraphObject) {
      const post = object as FbPost;
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
        source: v.fileUrl,
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

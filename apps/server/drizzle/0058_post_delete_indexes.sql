CREATE INDEX "evergreen_fills_copy_idx" ON "evergreen_fills" USING btree ("copy_post_id");--> statement-breakpoint
CREATE INDEX "short_links_post_idx" ON "short_links" USING btree ("post_id");
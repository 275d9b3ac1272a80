/** What a reader sees of "little" text (docs/networks.md#linkedin-publishing): backslash escapes removed. */
export const renderLittleText = (commentary: string) => commentary.replace(/\\(.)/gs, '$1');

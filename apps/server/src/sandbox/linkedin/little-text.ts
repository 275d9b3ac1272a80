/** What a reader sees of "little" text (§6.2): backslash escapes removed. */
export const renderLittleText = (commentary: string) => commentary.replace(/\\(.)/gs, '$1');

/** A file for a multipart body: its name, declared type and bytes. */
export interface FilePart {
  name: string;
  type: string;
  data: Uint8Array;
  field?: string;
}

/**
 * Serializes text fields (first, in order) and files into a multipart/form-data body the way a
 * browser does, for `app.inject`.
 */
export async function multipart(
  fields: Record<string, string | undefined>,
  files: FilePart[] = [],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) form.append(name, value);
  }
  for (const file of files) {
    form.append(
      file.field ?? 'media',
      new Blob([new Uint8Array(file.data)], { type: file.type }),
      file.name,
    );
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}

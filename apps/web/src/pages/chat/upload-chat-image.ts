import { client } from '@/lib/client';

function extensionOf(file: File): string {
  const fromName = /\.([a-z0-9]{1,8})$/i.exec(file.name)?.[1];
  if (fromName) return fromName.toLowerCase();
  return file.type.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'jpg';
}

/** Stores the photo under chat-images/{timestamp}.{extension} (SPEC.md section 7) and returns its public URL. */
export async function uploadChatImage(file: File): Promise<string> {
  const { publicUrl } = await client.storage.upload(file, `chat-images/${Date.now()}.${extensionOf(file)}`, {
    upsert: true,
  });
  return publicUrl;
}

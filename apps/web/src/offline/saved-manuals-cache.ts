/** The Cache Storage cache of manuals saved for offline; the service worker serves /files/ from it. */
export const SAVED_MANUALS_CACHE = 'fieldassist-saved-manuals';

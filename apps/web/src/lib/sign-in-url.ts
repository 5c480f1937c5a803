/** The platform's project id for this product; the hosted sign-in page needs it. */
export const PROJECT_ID = 'fieldassist';

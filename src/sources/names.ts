/** What a stored source's name may be: it appears in URLs (`model=`, `source=`), settings and logs. */
export const SOURCE_NAME = /^[a-z][a-z0-9_]{0,62}$/;
export const SOURCE_NAME_RULE = 'lower-case letters, digits and _ starting with a letter, at most 63 characters';

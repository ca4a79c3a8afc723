/**
 * A doctor's name as the sentences that name them need it: the catalogues put a title before the
 * name ("Dr. {{doctor}}"), so a name that already carries one ("Dr. Ana M. Reyes", "Dra. Ruiz",
 * "Prof. Dr. Weber") takes the sentence without a title instead of reading "Dr. Dr. …".
 */

/** A leading academic or medical title: Dr, Dr., Dra., Doctor, Doctora, Docteur, Prof., Pr. */
const TITLE = /^(dr|dra|drª|doctor|doctora|docteur|prof|professor|pr)\.?(\s|$)/i;

/** Whether `name` already starts with a title. */
export function hasTitle(name: string): boolean {
  return TITLE.test(name.trim());
}

// PublicationType values and labels (decisions section 4): the deposit repository's vocabulary,
// carried alike by a dataset's and a feature model's metadata and filtered on by the search. Kept in
// core because dataset and featuremodel require each other and neither may import the other for it.
export const PUBLICATION_TYPES = [
  ['none', 'None'],
  ['annotationcollection', 'Annotation Collection'],
  ['book', 'Book'],
  ['section', 'Book Section'],
  ['conferencepaper', 'Conference Paper'],
  ['datamanagementplan', 'Data Management Plan'],
  ['article', 'Journal Article'],
  ['patent', 'Patent'],
  ['preprint', 'Preprint'],
  ['deliverable', 'Project Deliverable'],
  ['milestone', 'Project Milestone'],
  ['proposal', 'Proposal'],
  ['report', 'Report'],
  ['softwaredocumentation', 'Software Documentation'],
  ['taxonomictreatment', 'Taxonomic Treatment'],
  ['technicalnote', 'Technical Note'],
  ['thesis', 'Thesis'],
  ['workingpaper', 'Working Paper'],
  ['other', 'Other'],
] as const;

export type PublicationType = (typeof PUBLICATION_TYPES)[number][0];

const LABELS = new Map<string, string>(PUBLICATION_TYPES);

export function isPublicationType(value: string): value is PublicationType {
  return LABELS.has(value);
}

export function publicationTypeLabel(value: string): string {
  return LABELS.get(value) ?? 'None';
}

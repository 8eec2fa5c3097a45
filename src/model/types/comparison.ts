/** The comparisons DNS and SPF record alerts share (section 2.4). */
export const COMPARISON_FILTERS = ['equals', 'does not equal', 'contains', 'does not contain'] as const;

/** Name and target come from the props of the same name, whatever the type. */
export const COMMON_SOURCES = { name: 'name', target_type: 'target', target_id: 'target' } as const;

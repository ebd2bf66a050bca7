/** Collections of the methodology pages (landing, 5 Ps, stages, templates, playbook, AI tools). */
export const methodologyCollections = {};

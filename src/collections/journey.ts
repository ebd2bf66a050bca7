/** Collections of the journey pages (trail, FAQ, glossary, contact, about, Sementezz, AI First, committee). */
export const journeyCollections = {};

import { methodologyCollections } from "./collections/methodology";
import { journeyCollections } from "./collections/journey";

/** Content collections: methodology pages (Content I) and journey pages (Content II). */
export const collections = { ...methodologyCollections, ...journeyCollections };

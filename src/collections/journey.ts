import { defineCollection } from "astro:content";
import { aboutSchema } from "../schemas/about";
import { committeeSchema } from "../schemas/committee";
import { contactSchema } from "../schemas/contact";
import { faqSchema } from "../schemas/faq";
import { fastTrackSchema } from "../schemas/fast-track";
import { glossaryTermSchema } from "../schemas/glossary";
import { sementezzSchema } from "../schemas/sementezz";
import { trailPhaseSchema } from "../schemas/trail";
import { yamlLoader } from "./yaml-loader";

/** Collections of the journey pages (trail, FAQ, glossary, contact, about, Sementezz, AI First, committee). */
export const journeyCollections = {
  trailPhases: defineCollection({ loader: yamlLoader("content/trail.yaml"), schema: trailPhaseSchema }),
  faq: defineCollection({ loader: yamlLoader("content/faq.yaml"), schema: faqSchema }),
  glossary: defineCollection({ loader: yamlLoader("content/glossary.yaml"), schema: glossaryTermSchema }),
  contact: defineCollection({ loader: yamlLoader("content/contact.yaml"), schema: contactSchema }),
  about: defineCollection({ loader: yamlLoader("content/about.yaml"), schema: aboutSchema }),
  sementezz: defineCollection({ loader: yamlLoader("content/sementezz.yaml"), schema: sementezzSchema }),
  fastTrack: defineCollection({ loader: yamlLoader("content/fast-track.yaml"), schema: fastTrackSchema }),
  committee: defineCollection({ loader: yamlLoader("content/committee.yaml"), schema: committeeSchema }),
};

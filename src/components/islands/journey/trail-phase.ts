/** One phase of the trail as the page passes it to the island. */
export interface TrailPhaseProps {
  id: string;
  title: string;
  description: string;
  pillars: string[];
  questions: string[];
  tools: string[];
  templates: string[];
  example: string;
  /** Tailwind classes of the phase colour. */
  accent: string;
}

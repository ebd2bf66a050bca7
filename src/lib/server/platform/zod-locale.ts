import { z } from "zod";

// Every schema message the server sends without one of its own comes out in Brazilian Portuguese.
z.config(z.locales.ptBR());

import * as z from "zod";

// Input rules shared by route definitions (response shapes are the wire schemas of src/wire/).

const EMAIL = z.email();
export const isValidEmail = (email: string): boolean => EMAIL.safeParse(email).success;

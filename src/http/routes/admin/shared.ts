import type { ErrorKey } from "../../../errors.ts";

/** Admin routes acting on a user answer a missing one with 404 (as Better Auth's admin plugin does). */
export const TARGET_USER_REFUSALS: Partial<Record<ErrorKey, ErrorKey>> = { USER_NOT_FOUND: "TARGET_USER_NOT_FOUND" };

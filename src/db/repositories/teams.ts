import type { Db, TeamMemberRow, TeamRow } from "../schema.ts";

export function findTeamById(db: Db, id: string, organizationId?: string): Promise<TeamRow | undefined> {
  let query = db.selectFrom("team").selectAll().where("id", "=", id);
  if (organizationId !== undefined) query = query.where("organizationId", "=", organizationId);
  return query.executeTakeFirst();
}

export function insertTeam(db: Db, row: TeamRow): Promise<TeamRow> {
  return db.insertInto("team").values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateTeam(
  db: Db,
  id: string,
  changes: Partial<Omit<TeamRow, "id" | "organizationId">>,
): Promise<TeamRow | undefined> {
  return db.updateTable("team").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

/** Deletes a team (its team members go by cascade) and forgets it as a member's team. */
export async function deleteTeam(db: Db, id: string): Promise<void> {
  await db.updateTable("member").set({ teamId: null }).where("teamId", "=", id).execute();
  await db.deleteFrom("team").where("id", "=", id).execute();
}

export function listTeamsOfOrganization(db: Db, organizationId: string): Promise<TeamRow[]> {
  return db
    .selectFrom("team")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
}

export async function countTeamsOfOrganization(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("team")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("organizationId", "=", organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listTeamsOfUser(db: Db, userId: string): Promise<TeamRow[]> {
  return db
    .selectFrom("team")
    .innerJoin("teamMember", "teamMember.teamId", "team.id")
    .selectAll("team")
    .where("teamMember.userId", "=", userId)
    .orderBy("team.createdAt", "asc")
    .execute();
}

export function findTeamMember(db: Db, teamId: string, userId: string): Promise<TeamMemberRow | undefined> {
  return db
    .selectFrom("teamMember")
    .selectAll()
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .executeTakeFirst();
}

export function listTeamMembers(db: Db, teamId: string): Promise<TeamMemberRow[]> {
  return db.selectFrom("teamMember").selectAll().where("teamId", "=", teamId).orderBy("createdAt", "asc").execute();
}

export async function countTeamMembers(db: Db, teamId: string): Promise<number> {
  const row = await db
    .selectFrom("teamMember")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("teamId", "=", teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertTeamMember(db: Db, row: TeamMemberRow): Promise<TeamMemberRow> {
  return db.insertInto("teamMember").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function deleteTeamMember(db: Db, teamId: string, userId: string): Promise<void> {
  await db.deleteFrom("teamMember").where("teamId", "=", teamId).where("userId", "=", userId).execute();
}

/** A user leaving an organization also leaves its teams. */
export async function deleteTeamMembershipsInOrganization(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<void> {
  const teamIds = db.selectFrom("team").select("id").where("organizationId", "=", organizationId);
  await db.deleteFrom("teamMember").where("userId", "=", userId).where("teamId", "in", teamIds).execute();
}

-- What `prisma migrate dev --create-only` writes for prisma/schema.prisma, with TEXT replaced by
-- the ID types (the hand edit).
CREATE TABLE "pr_events" (
    "id" ulid NOT NULL DEFAULT generate_ulid(),
    "tid" timeid NOT NULL DEFAULT generate_tid(),
    "name" TEXT NOT NULL,

    CONSTRAINT "pr_events_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "pr_tickets" (
    "id" uid11 NOT NULL DEFAULT generate_uid11(),
    "event_id" ulid NOT NULL,
    "note" TEXT,

    CONSTRAINT "pr_tickets_pkey" PRIMARY KEY ("id")
);

ALTER TABLE "pr_tickets" ADD CONSTRAINT "pr_tickets_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "pr_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

//! The database's schema: its changes, in order; `PRAGMA user_version`
//! counts those applied (`open`).

/// Schema changes, in order; `user_version` counts those applied.
pub(super) const MIGRATIONS: &[&str] = &[
    "
    CREATE TABLE students (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        token_hash TEXT NOT NULL UNIQUE,
        staff INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE submissions (
        id INTEGER PRIMARY KEY,
        student INTEGER NOT NULL REFERENCES students(id),
        sha256 TEXT NOT NULL,
        file_name TEXT NOT NULL,
        size INTEGER NOT NULL,
        status TEXT NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        grade TEXT,
        created TEXT NOT NULL DEFAULT (datetime('now')),
        finished TEXT
    );
    CREATE INDEX submissions_by_status ON submissions(status, id);
    CREATE INDEX submissions_by_student ON submissions(student, id);
",
    "
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    ALTER TABLE submissions ADD COLUMN late INTEGER NOT NULL DEFAULT 0;
",
    "
    CREATE TABLE games (
        a INTEGER NOT NULL REFERENCES submissions(id),
        b INTEGER NOT NULL REFERENCES submissions(id),
        game INTEGER NOT NULL,
        result TEXT NOT NULL,
        PRIMARY KEY (a, b, game)
    );
",
    "
    ALTER TABLE submissions ADD COLUMN player TEXT;
",
    // Every upload a student starts counts against the hourly limit,
    // accepted or refused (`uploads`); the fair queue needs the order in
    // which gradings started (`grading_turn`).
    "
    CREATE TABLE uploads (
        id INTEGER PRIMARY KEY,
        student INTEGER NOT NULL REFERENCES students(id),
        created TEXT NOT NULL DEFAULT (datetime('now')),
        submission INTEGER REFERENCES submissions(id),
        refused TEXT
    );
    CREATE INDEX uploads_by_student ON uploads(student, created);
    INSERT INTO uploads (student, created, submission) SELECT student, created, id FROM submissions;
    ALTER TABLE submissions ADD COLUMN grading_turn INTEGER;
    UPDATE submissions SET grading_turn = id WHERE status != 'queued';
",
    // A grading run's Slurm jobs (`--executor slurm`), so that a restarted
    // server follows the job under way instead of submitting another, and
    // counts the jobs that ended without finishing the run. `state` is
    // NULL until the server sees the job end.
    "
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        submission INTEGER NOT NULL REFERENCES submissions(id),
        slurm_id TEXT NOT NULL,
        submitted TEXT NOT NULL DEFAULT (datetime('now')),
        state TEXT,
        exit_code INTEGER,
        ended TEXT
    );
    CREATE INDEX jobs_by_submission ON jobs(submission, id);
",
    // Groups (the course's projects are by groups of 2 or 3): a submission
    // is its group's, seen by every member; the hourly limit and the fair
    // queue count per group. Every student of an older server becomes a
    // group of one, named as they are; `note`: a group's contribution note.
    "
    CREATE TABLE groups (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL DEFAULT (datetime('now'))
    );
    INSERT INTO groups (id, name) SELECT id, name FROM students;
    ALTER TABLE students ADD COLUMN group_id INTEGER REFERENCES groups(id);
    UPDATE students SET group_id = id;
    ALTER TABLE submissions ADD COLUMN group_id INTEGER REFERENCES groups(id);
    UPDATE submissions SET group_id = (SELECT group_id FROM students WHERE students.id = submissions.student);
    ALTER TABLE submissions ADD COLUMN note TEXT;
    ALTER TABLE uploads ADD COLUMN group_id INTEGER REFERENCES groups(id);
    UPDATE uploads SET group_id = (SELECT group_id FROM students WHERE students.id = uploads.student);
    CREATE INDEX submissions_by_group ON submissions(group_id, id);
    CREATE INDEX uploads_by_group ON uploads(group_id, created);
",
    // Assignments (a course sets several games): a submission is for one.
    // A server before them hosted one assignment: its submissions (NULL
    // here) are the course's first assignment's, set when a server starts
    // (`adopt_unassigned`), as is its deadline. Scrimmages: a group's
    // challenge to another group's current submission of the same
    // assignment, unranked; `result`: the games' W/D/L as JSON.
    "
    ALTER TABLE submissions ADD COLUMN assignment TEXT;
    CREATE INDEX submissions_by_assignment ON submissions(assignment, group_id, id);
    CREATE TABLE scrimmages (
        id INTEGER PRIMARY KEY,
        assignment TEXT NOT NULL,
        challenger INTEGER NOT NULL REFERENCES groups(id),
        opponent INTEGER NOT NULL REFERENCES groups(id),
        by_student INTEGER NOT NULL REFERENCES students(id),
        a INTEGER NOT NULL REFERENCES submissions(id),
        b INTEGER NOT NULL REFERENCES submissions(id),
        status TEXT NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        error TEXT,
        created TEXT NOT NULL DEFAULT (datetime('now')),
        finished TEXT
    );
    CREATE INDEX scrimmages_by_challenger ON scrimmages(challenger, created);
    CREATE INDEX scrimmages_by_opponent ON scrimmages(opponent, id);
    CREATE INDEX scrimmages_by_status ON scrimmages(status, id);
",
    // What a grade was made under (`Assignment::graded_under`: the budget,
    // the clock, the settings), as JSON; NULL for grades from before.
    "ALTER TABLE submissions ADD COLUMN graded_under TEXT;",
    // A group of staff only tests the server: it competes (the
    // leaderboard, the league, scrimmages, `finalize`) only if marked so
    // (`--compete`). A group with a student always competes: [`COMPETES`].
    "ALTER TABLE groups ADD COLUMN compete INTEGER NOT NULL DEFAULT 0;",
    // Every challenge a group starts counts against its hourly scrimmages,
    // refused or not (as `uploads` does for uploads), so that naming groups
    // at random to learn which exist costs what a scrimmage does;
    // `scrimmage`: the one it made. The scrimmages made before are counted.
    "
    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        group_id INTEGER NOT NULL REFERENCES groups(id),
        student INTEGER NOT NULL REFERENCES students(id),
        created TEXT NOT NULL DEFAULT (datetime('now')),
        scrimmage INTEGER REFERENCES scrimmages(id),
        refused TEXT
    );
    CREATE INDEX challenges_by_group ON challenges(group_id, created);
    INSERT INTO challenges (group_id, student, created, scrimmage)
        SELECT challenger, by_student, created, id FROM scrimmages;
",
    // A student removed from the course (`arena serve remove-student`):
    // when; their token was replaced by one no token hashes to. Their
    // group's submissions and grades stay.
    "ALTER TABLE students ADD COLUMN removed TEXT;",
    // A student's full name as the course's roster gives it (`add-student
    // --roster` with a `full name` column), for the gradebook exports; NULL
    // when none was given (`name` is their login).
    "ALTER TABLE students ADD COLUMN full_name TEXT;",
    // A league game's winner apart from its record (0 the older submission,
    // 1 the newer, -1 a draw), so that the league's start counts each
    // pairing's W/D/L in the database (`GROUP BY`) instead of reading a
    // million records; the league's ratings as last fitted, so that it
    // starts from them; and the members of a group found without reading
    // every student (whether it competes: a class of 10,000 read 10,000
    // students for each of 10,000 submissions). Issue 37.
    "
    ALTER TABLE games ADD COLUMN winner INTEGER;
    UPDATE games SET winner = COALESCE(json_extract(result, '$.winner'), -1);
    CREATE INDEX students_by_group ON students(group_id);
    CREATE TABLE league_ratings (
        assignment TEXT NOT NULL,
        submission INTEGER NOT NULL,
        elo REAL NOT NULL,
        error REAL,
        PRIMARY KEY (assignment, submission)
    );
",
    // A submission's stored games, on either side (`a IN (..) OR b IN
    // (..)`, when it enters the league): without an index on `b`, a scan
    // of every game, a tenth of a second or more at a million, for each
    // graded submission.
    "
    CREATE INDEX games_by_b ON games(b);
",
    // A grading the machine could not give cores to (issue 47), or that
    // found the disk full, waits: why (for the student and staff), when it
    // is taken again, and how many times it waited (the backoff).
    "
    ALTER TABLE submissions ADD COLUMN waiting TEXT;
    ALTER TABLE submissions ADD COLUMN retry_at TEXT;
    ALTER TABLE submissions ADD COLUMN waits INTEGER NOT NULL DEFAULT 0;
",
];

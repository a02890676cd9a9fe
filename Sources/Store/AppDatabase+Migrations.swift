import GRDB

extension AppDatabase {
    /// The schema's history. A migration that has landed is never edited: change the schema by registering
    /// a new one ("v2", ...) below the others. Migrations speak SQL names only, never the record types, because
    /// they describe the past while the records describe the present.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1") { db in
            try db.create(table: "camera") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("rtspURL", .text).notNull()
                t.column("username", .text).notNull().defaults(to: "")
                t.column("passwordSealed", .blob)
                t.column("host", .text)
                t.column("port", .integer).notNull().defaults(to: 554)
                t.column("manufacturer", .text)
                t.column("model", .text)
                t.column("isActive", .boolean).notNull().defaults(to: true)
                t.column("gridPosition", .integer).notNull()
                t.column("addedAt", .datetime).notNull()
                t.column("lastConnectedAt", .datetime)
                t.column("thumbnail", .blob)
                t.column("thumbnailAt", .datetime)
                t.column("transport", .text).notNull().defaults(to: "tcp")
                    .check(sql: "transport IN ('tcp', 'udp')")
                t.column("allowSelfSignedCertificate", .boolean).notNull().defaults(to: false)
                t.column("isDemo", .boolean).notNull().defaults(to: false)
            }

            try db.create(table: "streamProfile") { t in
                t.primaryKey("id", .text)
                t.column("cameraID", .text).notNull()
                    .indexed()
                    .references("camera", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("rtspURL", .text).notNull()
                t.column("width", .integer)
                t.column("height", .integer)
                t.column("fps", .double)
                t.column("isDefault", .boolean).notNull().defaults(to: false)
                t.column("role", .text).notNull().defaults(to: "main")
                    .check(sql: "role IN ('main', 'sub')")
            }

            // At most one default profile per camera (SQLite partial index, https://sqlite.org/partialindex.html).
            try db.execute(sql: """
                CREATE UNIQUE INDEX streamProfile_oneDefaultPerCamera ON streamProfile(cameraID) WHERE isDefault
                """)
        }

        // Floor plans (issue 8): sites hold at most ten plans; a plan's image lives in its own table so that
        // listing plans never reads megabytes of pictures; a camera is placed at most once per plan.
        migrator.registerMigration("v2-floor-plans") { db in
            try db.create(table: "site") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("address", .text).notNull().defaults(to: "")
                t.column("createdAt", .datetime).notNull()
            }

            try db.create(table: "floorPlan") { t in
                t.primaryKey("id", .text)
                t.column("siteID", .text).notNull()
                    .indexed()
                    .references("site", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("floorLevel", .integer).notNull().defaults(to: 0)
                t.column("imageType", .text)
                    .check(sql: "imageType IS NULL OR imageType IN ('image/jpeg', 'image/png', 'image/svg+xml')")
                t.column("imageWidth", .double)
                t.column("imageHeight", .double)
                t.column("imageVersion", .integer).notNull().defaults(to: 0)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }

            try db.create(table: "floorPlanImage") { t in
                t.primaryKey("planID", .text).references("floorPlan", onDelete: .cascade)
                t.column("bytes", .blob).notNull()
            }

            try db.create(table: "placement") { t in
                t.primaryKey("id", .text)
                t.column("planID", .text).notNull()
                    .references("floorPlan", onDelete: .cascade)
                t.column("cameraID", .text).notNull()
                    .indexed()
                    .references("camera", onDelete: .cascade)
                t.column("x", .double).notNull().check(sql: "x BETWEEN 0 AND 1")
                t.column("y", .double).notNull().check(sql: "y BETWEEN 0 AND 1")
                t.column("direction", .double).notNull().defaults(to: 0)
                    .check(sql: "direction >= 0 AND direction < 360")
                t.column("fieldOfView", .double).notNull().defaults(to: 90)
                    .check(sql: "fieldOfView > 0 AND fieldOfView <= 360")
                t.column("range", .double).notNull().defaults(to: 0.15)
                    .check(sql: "range > 0 AND range <= 1")
                t.column("updatedAt", .datetime).notNull()
                t.uniqueKey(["planID", "cameraID"])
            }
        }

        // Discovery settings (issue 5): one row (id = 1) with the default subnets, ports and credentials to try.
        // Subnets and ports are JSON arrays of text/integers; the password is sealed like a camera's.
        migrator.registerMigration("v2-discovery-settings") { db in
            try db.create(table: "discoverySettings") { t in
                t.primaryKey("id", .integer).check(sql: "id = 1")
                t.column("subnets", .text).notNull().defaults(to: "[]")
                t.column("ports", .text).notNull().defaults(to: "[554,8554,88,7447,5000]")
                t.column("onvif", .boolean).notNull().defaults(to: true)
                t.column("username", .text).notNull().defaults(to: "")
                t.column("passwordSealed", .blob)
            }
        }

        // Recording (issue 7): per-camera settings, the segment index, protected ranges, the storage caps.
        // Segments keep their camera id without a foreign key: footage outlives a camera removed from the
        // registry until retention or a person deletes it.
        migrator.registerMigration("v3-recording") { db in
            try db.create(table: "recordingSettings") { t in
                t.primaryKey("cameraID", .text).references("camera", onDelete: .cascade)
                t.column("mode", .text).notNull().defaults(to: "off")
                    .check(sql: "mode IN ('off', 'continuous', 'scheduled', 'manual')")
                t.column("schedule", .text).notNull().defaults(to: "[]")
                t.column("retentionDays", .integer).check(sql: "retentionDays IS NULL OR retentionDays > 0")
            }

            try db.create(table: "segment") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("cameraID", .text).notNull()
                t.column("start", .datetime).notNull()
                t.column("end", .datetime).notNull()
                t.column("duration", .double).notNull()
                t.column("bytes", .integer).notNull()
                t.column("path", .text).notNull().unique()
                t.column("codec", .text).notNull()
                t.column("mimeType", .text).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("keyframes", .blob).notNull()
            }
            try db.create(index: "segment_cameraStart", on: "segment", columns: ["cameraID", "start"])
            try db.create(index: "segment_start", on: "segment", columns: ["start"])

            try db.create(table: "protection") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("cameraID", .text).notNull()
                t.column("from", .datetime).notNull()
                t.column("to", .datetime).notNull()
                t.column("note", .text).notNull().defaults(to: "")
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "protection_cameraFrom", on: "protection", columns: ["cameraID", "from"])

            try db.create(table: "storageSettings") { t in
                t.primaryKey("id", .integer).check(sql: "id = 1")
                t.column("maxBytes", .integer)
                t.column("minFreeBytes", .integer).notNull().defaults(to: 1 << 30)
            }
        }

        // Future migrations go here: migrator.registerMigration("v4-...") { db in ... }

        return migrator
    }
}

import CSQLite
import Foundation

struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { message }

    /// Our own code: a database written by another version of the program.
    static let otherVersion: Int32 = -1

    /// A file that is not a database of ours, or a damaged one: to be deleted and built again.
    /// (Busy, full or read-only are not: another command may be writing it.)
    var isDamage: Bool { code == Self.otherVersion || code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB }
}

/// One SQLite connection; the only owner of its `sqlite3` pointer.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Opens (creating) the database at `path`; ":memory:" for one that lives only as long as this.
    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: message)
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return SQLiteStatement(statement, database: self)
    }

    /// The first column of the first row of `sql`, the statement finished before it returns.
    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        guard try statement.step() else { throw SQLiteError(code: SQLITE_DONE, message: "no row from \(sql)") }
        return statement.integer(0)
    }

    /// `body` inside one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    func error(_ code: Int32) -> SQLiteError { SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle))) }
}

enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}

/// A prepared statement; the only owner of its `sqlite3_stmt` pointer.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase
    /// SQLite copies the bound text (`SQLITE_TRANSIENT`, a macro Swift cannot import).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// Resets the statement and binds `values` to its parameters, in order.
    @discardableResult
    func bind(_ values: [SQLiteValue]) -> SQLiteStatement {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let number): sqlite3_bind_int64(statement, index, number)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .null: sqlite3_bind_null(statement, index)
            }
        }
        return self
    }

    /// Advances to the next row: true while there is one.
    func step() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw database.error(code)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLiteValue]) throws {
        bind(values)
        while try step() {}
    }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func real(_ column: Int32) -> Double? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
    }
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: bytes)
    }
}

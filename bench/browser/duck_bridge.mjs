/* The synchronous bridge from the engine's `duckdb` stand-in (bench/browser/pyodide/duckdb) to one
   DuckDB-Wasm instance (its blocking bundle: a call returns its result, as Python expects), ADR-0091.

   run(connection, sql, parametersJson) -> JSON text {query, rows} or {error: {type, message}}.
   A query (what DuckDB parses as the subquery of a SELECT) comes back as one JSON array per row, made by
   DuckDB itself: DuckDB-Wasm cannot export a VARIANT column to Arrow. Any other statement (a transaction
   command, DDL, INSERT ... RETURNING) runs as it is and its few rows come back from Arrow. */

const QUERY_WRAPPER = (sql) => `SELECT json_array(*COLUMNS(*))::VARCHAR AS r FROM (${sql}\n) AS cookbook_q`;

function report(error) {
  const text = String((error && error.message) || error);
  try {
    const parsed = JSON.parse(text);
    return { type: parsed.exception_type || "Error", message: parsed.exception_message || text };
  } catch {
    const prefixed = /^([A-Za-z ]+?) Error: ([\s\S]*)$/.exec(text);  // what a prepared statement throws
    return prefixed ? { type: prefixed[1], message: prefixed[2] } : { type: "Error", message: text };
  }
}

function exact(value) {
  if (typeof value === "bigint") return { $int: value.toString() };
  if (value === null || value === undefined) return null;
  if (typeof value === "object") {
    if (typeof value.toArray === "function" && !(value instanceof Uint8Array)) {
      return Array.from(value.toArray(), exact);
    }
    if (typeof value.toJSON === "function") value = value.toJSON();
    const out = {};
    for (const [key, item] of Object.entries(value)) out[key] = exact(item);
    return out;
  }
  return value;
}

export function makeBridge(db) {
  const connections = new Map();
  let next = 1;

  function execute(connection, sql, parameters) {
    if (parameters.length === 0) return connection.query(sql);
    const statement = connection.prepare(sql);
    try {
      return statement.query(...parameters);
    } finally {
      statement.close();
    }
  }

  function queryRows(table) {
    const column = table.getChildAt(0);
    const rows = new Array(table.numRows);
    for (let i = 0; i < table.numRows; i++) rows[i] = column.get(i);
    return "[" + rows.join(",") + "]";
  }

  function plainRows(table) {
    const columns = table.schema.fields.map((_, i) => table.getChildAt(i));
    const rows = [];
    for (let i = 0; i < table.numRows; i++) rows.push(columns.map((c) => exact(c.get(i))));
    return JSON.stringify(rows);
  }

  return {
    version() {
      const connection = db.connect();
      try {
        return String(connection.query("SELECT version() AS v").getChildAt(0).get(0)).replace(/^v/, "");
      } finally {
        connection.close();
      }
    },
    connect() {
      const id = next++;
      const connection = db.connect();
      // extensions come from DuckDB's extension site at run time: never, on a site that ships everything
      connection.query("SET autoinstall_known_extensions = false");
      connection.query("SET autoload_known_extensions = false");
      connections.set(id, connection);
      return id;
    },
    close(id) {
      const connection = connections.get(id);
      if (connection) connection.close();
      connections.delete(id);
    },
    run(id, sql, parametersJson) {
      const connection = connections.get(id);
      const parameters = JSON.parse(parametersJson);
      const body = sql.replace(/[\s;]+$/, "");
      try {
        try {
          return '{"query":true,"rows":' + queryRows(execute(connection, QUERY_WRAPPER(body), parameters)) + "}";
        } catch (error) {
          const why = report(error);
          if (why.type !== "Parser" && !/json extension/.test(why.message)) throw error;
        }
        return '{"query":false,"rows":' + plainRows(execute(connection, sql, parameters)) + "}";
      } catch (error) {
        return JSON.stringify({ error: report(error) });
      }
    },
  };
}

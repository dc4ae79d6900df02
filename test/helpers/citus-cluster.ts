/**
 * Test databases on a Citus cluster (`CITUS_URL`, the coordinator; issue 37). A Citus database is
 * one database of the same name on the coordinator and on every worker, each with the `citus`
 * extension, the workers registered in the coordinator's. The run's template is migrated once
 * (migration 113 distributes the tables); each test file's copy is made on every node from the
 * template's copy there, so the coordinator's metadata and the workers' shards still match.
 */
import pg from 'pg';

/** The servers of a cluster, as admin URLs (database `postgres`): the coordinator first. */
export interface CitusNodes {
  coordinator: string;
  workers: string[];
}

/** Where the test processes find the workers (comma-separated admin URLs). */
export const CITUS_WORKERS_ENV = 'INNKEEP_TEST_CITUS_WORKERS';

/** Shards per distributed table in test databases: a few hundred tables' worth, not thousands. */
const TEST_SHARD_COUNT = 4;

const urlOn = (base: string, host: string, port: number | string, database: string) => {
  const url = new URL(base);
  url.hostname = host;
  url.port = String(port);
  url.pathname = `/${database}`;
  return url.toString();
};

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The workers the coordinator's admin database knows (the cluster is set up there). */
export async function discoverCitusNodes(coordinatorAdminUrl: string): Promise<CitusNodes> {
  const client = new pg.Client({ connectionString: coordinatorAdminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ nodename: string; nodeport: number }>(
      `SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' AND isactive
        ORDER BY nodeid`,
    );
    if (rows.length === 0) throw new Error('the coordinator has no active worker (citus_add_node)');
    return {
      coordinator: coordinatorAdminUrl,
      workers: rows.map((r) => urlOn(coordinatorAdminUrl, r.nodename, r.nodeport, 'postgres')),
    };
  } finally {
    await client.end();
  }
}

export function citusNodesFromEnv(coordinatorUrl: string): CitusNodes | undefined {
  const workers = process.env[CITUS_WORKERS_ENV];
  if (!workers) return undefined;
  return { coordinator: withDatabase(coordinatorUrl, 'postgres'), workers: workers.split(',') };
}

async function onNode<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  // Citus's notices about CREATE DATABASE not being propagated: we make it on every node ourselves.
  client.on('notice', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Makes `name` on every node. Without `template`: empty, with the extension, the workers
 * registered. With one: a copy of it on every node; the connections Citus keeps to the template
 * (its maintenance daemon, the coordinator's to the workers) are ended first, since PostgreSQL
 * copies a database nobody is connected to.
 */
export async function createCitusDatabase(nodes: CitusNodes, name: string, template?: string): Promise<void> {
  const all = [nodes.coordinator, ...nodes.workers];
  if (template) {
    for (const node of all) {
      await onNode(node, async (client) => {
        for (let attempt = 1; ; attempt++) {
          await client.query(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
            [template],
          );
          try {
            await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
            return;
          } catch (error) {
            if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
            await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
          }
        }
      });
    }
    return;
  }
  for (const node of all) {
    await onNode(node, async (client) => {
      await client.query(`CREATE DATABASE ${name}`);
    });
    await onNode(withDatabase(node, name), async (client) => {
      await client.query('CREATE EXTENSION citus');
    });
  }
  await onNode(withDatabase(nodes.coordinator, name), async (client) => {
    const coordinator = new URL(nodes.coordinator);
    await client.query(`ALTER DATABASE ${name} SET citus.shard_count = ${TEST_SHARD_COUNT}`);
    await client.query('SELECT citus_set_coordinator_host($1, $2)', [
      coordinator.hostname,
      Number(coordinator.port || 5432),
    ]);
    for (const worker of nodes.workers) {
      const url = new URL(worker);
      await client.query('SELECT citus_add_node($1, $2)', [url.hostname, Number(url.port || 5432)]);
    }
  });
}

/** Drops every database named `run` or `run_…` on every node. */
export async function dropCitusDatabases(nodes: CitusNodes, run: string): Promise<void> {
  for (const node of [nodes.coordinator, ...nodes.workers]) {
    await onNode(node, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $1 || '_')`,
        [run],
      );
      for (const { datname } of rows) {
        await client
          .query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
          .catch((e) => console.error(`could not drop ${datname}: ${e.message}`));
      }
    }).catch((e) => console.error(`could not clean up on ${new URL(node).host}: ${e.message}`));
  }
}

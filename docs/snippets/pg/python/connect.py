# packages: psycopg[binary]>=3.1
# env: LOAMS_PG_URL, LOAMS_API_KEY
# doc: guides/engines/postgres-wire.md
import os

import psycopg

conn = psycopg.connect(os.environ["LOAMS_PG_URL"], password=os.environ["LOAMS_API_KEY"])

print(conn.execute("SELECT 1").fetchone())

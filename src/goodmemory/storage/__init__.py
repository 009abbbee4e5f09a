"""Storage adapters behind the ``Storage`` protocol (``storage.base``): in-memory, SQLite and PostgreSQL.

The adapters are picked by URL in ``create_good_memory``; import one from its module
(``goodmemory.storage.sql.SQLStorage``, ``goodmemory.storage.postgres.PostgresStorage``,
``goodmemory.storage.memory.InMemoryStorage``). Nothing is re-exported here, so importing the package loads no driver.
"""

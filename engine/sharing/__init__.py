"""One database file used by several processes (ADR-0055).

DuckDB lets one process at a time open a file for writing. The process that has it (the holder) serves the
others over a Unix socket beside nothing but its own user's files: each process that finds the file locked
sends its statements to the holder, whose threads run them on connections of their own to the same file, so
reads run side by side and writes take turns (storage/write_lock.py). When the holder exits or is killed, its
clients see the socket close, and the first to open the file becomes the next holder; the rest connect to it.

    address.py  where a file's socket is
    wire.py     the messages: length-prefixed pickles, read back building only values and engine classes
    holder.py   the serving side, started by the first connection of a process to a file
    client.py   SharedConnection, a connection through the holder that takes over when it goes
"""

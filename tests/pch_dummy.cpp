// Only carries the precompiled header shared by the QtTest executables.

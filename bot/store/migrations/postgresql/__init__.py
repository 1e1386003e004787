"""PostgreSQL's own files for the migrations whose SQL differs from the shared file of the same
number and name one folder up."""

CREATE TABLE c (id int);

CREATE TABLE b (id int);

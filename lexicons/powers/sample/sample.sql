-- The bundled sample database of the sqlite power (built in memory by the child server at start;
-- read-only from then on). A small shop: customers, products, orders and their lines.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, joined TEXT);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT, price REAL NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), ordered TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE order_lines (order_id INTEGER NOT NULL REFERENCES orders(id), product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL, PRIMARY KEY (order_id, product_id));

INSERT INTO customers VALUES
  (1, 'Ana Putri', 'Jakarta', '2025-03-14'), (2, 'Budi Santoso', 'Bandung', '2025-05-02'),
  (3, 'Chen Wei', 'Surabaya', '2025-07-21'), (4, 'Dewi Lestari', 'Jakarta', '2025-09-30'),
  (5, 'Eko Prasetyo', 'Medan', '2025-11-11'), (6, 'Fatima Noor', 'Bandung', '2026-01-05');
INSERT INTO products VALUES
  (1, 'Espresso beans 1kg', 'coffee', 18.5), (2, 'Green tea 200g', 'tea', 7.25),
  (3, 'Pour-over kettle', 'equipment', 42.0), (4, 'Paper filters x100', 'equipment', 4.5),
  (5, 'Single origin 250g', 'coffee', 11.0);
INSERT INTO orders VALUES
  (101, 1, '2026-01-03', 'paid'), (102, 2, '2026-01-05', 'paid'), (103, 1, '2026-01-09', 'shipped'),
  (104, 3, '2026-01-12', 'paid'), (105, 4, '2026-01-15', 'cancelled'), (106, 5, '2026-01-18', 'pending'),
  (107, 6, '2026-01-20', 'paid'), (108, 2, '2026-01-21', 'pending');
INSERT INTO order_lines VALUES
  (101, 1, 2), (101, 4, 1), (102, 2, 3), (103, 3, 1), (103, 5, 2), (104, 1, 1), (104, 2, 1),
  (105, 3, 1), (106, 5, 4), (107, 1, 1), (107, 3, 1), (108, 4, 2), (108, 2, 2);

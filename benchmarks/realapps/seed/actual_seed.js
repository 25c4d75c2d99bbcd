// Seed a running Actual sync-server: set its password, then build a household budget with
// Actual's own API (@actual-app/api) and upload it to the server.
//
// Accounts, categories, payees, amounts and days of month are fixed. The months are the
// current one and the two before it (Actual opens on the current month, so a budget with
// only past months would show an empty screen); everything else is identical on every seed.
// Usage: node actual_seed.js config DATA_DIR PORT       (writes DATA_DIR/config.json)
//        node actual_seed.js seed SERVER_URL PASSWORD SCRATCH_DIR
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const [command, ...args] = process.argv.slice(2);

const GROUPS = [
  ["Bills", [["Rent", 145000], ["Electricity", 9000], ["Internet", 4500], ["Phone", 2500]]],
  ["Everyday", [["Groceries", 52000], ["Eating out", 15000], ["Transport", 12000]]],
  ["Goals", [["Holiday fund", 25000], ["Emergency fund", 30000]]],
  ["Fun", [["Books & music", 4000], ["Gym", 3500], ["Gifts", 6000]]],
];

// [day, payee, category, amount in cents (negative = spending), notes]
const MONTH = [
  [1, "Northwind Lettings", "Rent", -145000, "Flat 4, Albion Road"],
  [2, "Brightside Energy", "Electricity", -8640, ""],
  [3, "FreshCo", "Groceries", -6423, ""],
  [4, "City Metro", "Transport", -4500, "Monthly pass"],
  [5, "Fibrelink", "Internet", -4500, ""],
  [6, "The Green Fork", "Eating out", -3850, "Dinner with Sam"],
  [8, "FreshCo", "Groceries", -8215, ""],
  [9, "Pulse Gym", "Gym", -3500, ""],
  [10, "Paper Lantern Books", "Books & music", -1899, ""],
  [11, "Orbit Mobile", "Phone", -2500, ""],
  [12, "FreshCo", "Groceries", -5932, ""],
  [14, "Corner Bakery", "Eating out", -1240, ""],
  [15, "Market Hall", "Groceries", -3475, "Farmers' market"],
  [17, "City Metro", "Transport", -2260, "Train to Leeds"],
  [19, "FreshCo", "Groceries", -7104, ""],
  [21, "Noodle Bar", "Eating out", -2680, ""],
  [23, "Gift Box", "Gifts", -3500, "Mia's birthday"],
  [26, "FreshCo", "Groceries", -6688, ""],
];

function monthOffset(offset) {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

function writeConfig(data, port) {
  const config = {
    port: Number(port),
    hostname: "127.0.0.1",
    dataDir: data,
    serverFiles: path.join(data, "server-files"),
    userFiles: path.join(data, "user-files"),
  };
  fs.writeFileSync(path.join(data, "config.json"), JSON.stringify(config, null, 2));
}

async function seed(serverURL, password, scratch) {
  // Required here, not at the top: the config step runs before the app is installed.
  const api = require("@actual-app/api");
  fs.mkdirSync(scratch, { recursive: true });
  const response = await fetch(`${serverURL}/account/bootstrap`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ password }),
  });
  const answer = await response.json();
  if (answer.status !== "ok") throw new Error(`bootstrap: ${JSON.stringify(answer)}`);

  await api.init({ dataDir: scratch, serverURL, password });
  await api.runImport("Household Budget", async () => {
    const checking = await api.createAccount({ name: "Everyday Checking", offbudget: false }, 0);
    const savings = await api.createAccount({ name: "Savings", offbudget: false }, 0);
    const card = await api.createAccount({ name: "Visa Card", offbudget: false }, 0);
    const categories = {};
    for (const [group, items] of GROUPS) {
      const groupId = await api.createCategoryGroup({ name: group });
      for (const [name] of items) {
        categories[name] = await api.createCategory({ name, group_id: groupId });
      }
    }
    const income = (await api.getCategories()).find((c) => c.is_income);
    const today = new Date();
    for (const offset of [-2, -1, 0]) {
      const month = monthOffset(offset);
      const last = offset === 0 ? today.getUTCDate() : 31;
      const rows = [
        {
          date: `${month}-01`,
          payee_name: "Acme Studio Ltd",
          category: income.id,
          amount: 385000,
          notes: "Salary",
          imported_id: `salary-${month}`,
        },
      ];
      for (const [day, payee, category, amount, notes] of MONTH) {
        if (day > last) continue;
        const account = category === "Eating out" || category === "Gifts" ? card : checking;
        if (account !== checking) continue;
        rows.push({
          date: `${month}-${String(day).padStart(2, "0")}`,
          payee_name: payee,
          category: categories[category],
          amount,
          notes,
        });
      }
      await api.addTransactions(checking, rows);
      const cardRows = MONTH.filter(
        ([day, , category]) => day <= last && (category === "Eating out" || category === "Gifts"),
      ).map(([day, payee, category, amount, notes]) => ({
        date: `${month}-${String(day).padStart(2, "0")}`,
        payee_name: payee,
        category: categories[category],
        amount,
        notes,
      }));
      await api.addTransactions(card, cardRows);
      await api.addTransactions(savings, [
        { date: `${month}-02`, payee_name: "Transfer from checking", amount: 55000,
          category: income.id, notes: "Monthly saving" },
      ]);
      for (const [, items] of GROUPS) {
        for (const [name, budgeted] of items) {
          await api.setBudgetAmount(month, categories[name], budgeted);
        }
      }
    }
  });
  await api.shutdown();
}

const main =
  command === "config" ? async () => writeConfig(...args) : async () => seed(...args);
main().catch((error) => {
  console.error(error);
  process.exit(1);
});

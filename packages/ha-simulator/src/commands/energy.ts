import { CommandError, defineCommand, type Command } from "./command.js";

/**
 * `energy/get_prefs` (`energy/websocket_api.py`): the Energy dashboard's
 * preferences as stored (minor version 3: each grid connection carries its own
 * `stat_energy_from` and `stat_energy_to`), open to every user; `not_found`
 * "No prefs" when the dashboard was never set up.
 */
export const energyCommands: Command[] = [
  defineCommand("energy/get_prefs", null, (conn, msg) => {
    const prefs = conn.ctx.home.house.energy?.prefs;
    if (!prefs) throw new CommandError("not_found", "No prefs");
    conn.sendResult(msg.id, prefs);
  }),
];

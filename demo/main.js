import { init } from 'ikpd';

const ikpd = await init();
document.getElementById('app').textContent = `ikpd ${ikpd.version} loaded — the interactive scenes arrive with the demo issue.`;

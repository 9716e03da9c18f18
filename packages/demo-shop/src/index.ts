export { type RunningShop, type ShopConfig, startShop } from './server.ts';
